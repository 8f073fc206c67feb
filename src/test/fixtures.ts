// Test data more than one screen's tests use.

/** An active announcement of school 's1', as the bell's feed brings it. */
export const testAnnouncement = {
  id: 'a1',
  school_id: 's1',
  course_id: null,
  title: 'Aula ao vivo sexta',
  body: '<p>Às 19h</p>',
  image_url: null,
  video_url: null,
  video_type: null,
  priority: 1,
  created_at: '2026-11-20T12:00:00Z',
};

// The announcement body's chunk (marked, DOMPurify): loaded by LazyAnnouncementBody, and early by the
// daily popup (while the announcements load) so the text shows with the dialog.
export const preloadAnnouncementBody = () => import('./announcement-body');

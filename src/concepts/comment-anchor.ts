// Where a lesson's page shows one comment: the element id of the comment and the link that opens the
// lesson at it (a notification of the bell). One definition for the thread and the bell.
export const COMMENT_ANCHOR_PREFIX = 'comentario-';

export const commentAnchorId = (commentId: string) => `${COMMENT_ANCHOR_PREFIX}${commentId}`;

export const commentLink = (courseId: string, lessonId: string, commentId: string) => `/course/${courseId}/lesson/${lessonId}#${commentAnchorId(commentId)}`;

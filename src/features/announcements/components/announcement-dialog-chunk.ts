// The announcement dialog's chunk: loaded by LazyAnnouncementDialog, and early by the daily popup
// (while the announcements load) so it opens with the data rather than a moment after.
export const preloadAnnouncementDialog = () => import('./announcement-dialog');

import { API_HOST } from '@/api/config';

/**
 * Hands a signed download link (POST /api/v1/download-links) to the browser's own download: the
 * file streams to disk, never through script memory, however large it is.
 */
export function downloadNatively(linkUrl: string): void {
  const link = document.createElement('a');
  link.href = `${API_HOST}${linkUrl.replace(/^\//, '')}`;
  link.download = '';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

/** Hands a downloaded file to the browser's own save (the server's answer needed the bearer token, so no plain link). */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click the browser has what it needs; revoking at once can cancel the download in some.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Catches the files the app hands to the browser's download (api/download.ts saveFile): `saved`
 * collects their names in order, `revoke` is the spied URL.revokeObjectURL, `restore` undoes it all.
 * Spied, not assigned: the test window's URL is Node's own, shared with the other suites of the worker.
 */
export function catchDownloads(objectUrl = 'blob:download') {
  const saved: string[] = [];
  const revoke = jest.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  const spies = [
    jest.spyOn(URL, 'createObjectURL').mockReturnValue(objectUrl),
    revoke,
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    }),
  ];
  return { saved, revoke, restore: () => spies.forEach((spy) => spy.mockRestore()) };
}

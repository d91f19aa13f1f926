/**
 * Saves a Blob as a file through an object URL and a temporary <a download>: the data goes
 * from memory to the user's disk without any request (DESIGN.md privacy rule 8).
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The click has started the download synchronously; release the memory shortly after.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function saveJson(value: unknown, fileName: string): void {
  saveBlob(new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' }), fileName);
}

// Saves what the browser built (a CSV, a PDF) as a file the user downloads.
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Some browsers read the URL after click() returns: let it live a while.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

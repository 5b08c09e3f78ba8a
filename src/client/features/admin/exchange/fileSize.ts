const sizeNumber = new Intl.NumberFormat('ru', { maximumFractionDigits: 1 });

/** A size as people read it: 512 Б, 12,5 КБ, 3 МБ. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} Б`;
  if (bytes < 1024 ** 2) return `${sizeNumber.format(bytes / 1024)} КБ`;
  return `${sizeNumber.format(bytes / 1024 ** 2)} МБ`;
}

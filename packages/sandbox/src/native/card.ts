/**
 * The sandbox's coordinates card: a 5 x 5 grid (columns A–E, rows 1–5) of 4-digit values.
 * Coordinate validations (types 2, 3 and 5) and the coordinates second login (type 2) ask
 * for one position ("B3") and expect the card's value there. Type 5 shows the card itself as
 * an SVG image in a `data:` URL.
 */

const CARD_COLUMNS = ['A', 'B', 'C', 'D', 'E'] as const;
const CARD_ROWS = [1, 2, 3, 4, 5] as const;
export const CARD_POSITIONS: readonly string[] = CARD_ROWS.flatMap((r) => CARD_COLUMNS.map((c) => `${c}${r}`));

/** The value at a position such as `B3`; null for a position not on the card. */
export function cardValue(position: string): string | null {
  const index = CARD_POSITIONS.indexOf(position);
  if (index < 0) return null;
  // Spread the 25 cells over 1000..9999 (never `0000`, the failure value).
  return String(1000 + ((index * 3571 + 2357) % 9000));
}

/** The position asked at the n-th coordinate challenge of a simulator instance. */
export function cardPosition(n: number): string {
  return CARD_POSITIONS[(n * 7 + 11) % CARD_POSITIONS.length]!;
}

function cardSvg(): string {
  const cell = { w: 56, h: 28 };
  const left = 30;
  const top = 44;
  const width = left + cell.w * CARD_COLUMNS.length + 10;
  const height = top + cell.h * CARD_ROWS.length + 10;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="Coordinates card">`,
    `<rect width="${width}" height="${height}" rx="10" fill="#f4f6fb" stroke="#1f3a68"/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-family="sans-serif" font-size="12" fill="#1f3a68">Tarjeta de coordenadas</text>`,
  ];
  CARD_COLUMNS.forEach((col, i) => {
    parts.push(
      `<text x="${left + cell.w * i + cell.w / 2}" y="${top - 8}" text-anchor="middle" font-family="sans-serif" font-size="12" font-weight="bold" fill="#1f3a68">${col}</text>`,
    );
  });
  CARD_ROWS.forEach((row, j) => {
    const y = top + cell.h * j;
    parts.push(
      `<text x="${left / 2 + 2}" y="${y + 19}" text-anchor="middle" font-family="sans-serif" font-size="12" font-weight="bold" fill="#1f3a68">${row}</text>`,
    );
    CARD_COLUMNS.forEach((col, i) => {
      const x = left + cell.w * i;
      parts.push(
        `<rect x="${x}" y="${y}" width="${cell.w}" height="${cell.h}" fill="#fff" stroke="#9aa7c0"/>`,
        `<text x="${x + cell.w / 2}" y="${y + 19}" text-anchor="middle" font-family="monospace" font-size="14" fill="#111">${cardValue(`${col}${row}`)}</text>`,
      );
    });
  });
  parts.push('</svg>');
  return parts.join('');
}

/** The card as `data:image/svg+xml;base64,...` (the `value` of a type-5 validation). */
export const CARD_DATA_URL = `data:image/svg+xml;base64,${Buffer.from(cardSvg(), 'utf8').toString('base64')}`;

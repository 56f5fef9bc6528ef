/**
 * A coordinates card shown as an image (validation type 5) read as data: the texts of an SVG
 * card placed in rows and columns, so that the card can be shown as a table that assistive
 * technology reads and that reflows when zoomed. A raster image cannot be read this way (it
 * stays an image with a text alternative). Pure functions on the SVG's source: no DOM parser
 * (none is needed to read texts, and a page under Trusted Types refuses one fed a string).
 */

/** A text of the card and where it is drawn. */
export interface CardText {
  x: number;
  y: number;
  text: string;
}

/** The card as a table: column headings, and each row's heading with its values. */
export interface CardGrid {
  columns: string[];
  rows: { label: string; cells: string[] }[];
}

const isLabel = (t: string) => /^[A-Za-z]{1,2}$|^\d{1,2}$/.test(t);

/** Groups texts drawn on one line (their baselines within `tolerance` units). */
function lines(texts: readonly CardText[], tolerance: number): CardText[][] {
  const sorted = [...texts].sort((a, b) => a.y - b.y || a.x - b.x);
  const out: CardText[][] = [];
  for (const t of sorted) {
    const line = out[out.length - 1];
    if (line && Math.abs(line[0]!.y - t.y) <= tolerance) line.push(t);
    else out.push([t]);
  }
  return out.map((l) => l.sort((a, b) => a.x - b.x));
}

/**
 * The grid of a card's texts: the first line of two or more short labels (A B C …) heads the
 * columns; each later line starting with a label (1, 2 …) followed by one value per column is a
 * row, each value placed in the column whose heading is nearest. Null when the texts do not
 * form such a grid.
 */
export function cardGrid(texts: readonly CardText[], tolerance = 6): CardGrid | null {
  const all = lines(
    texts.filter((t) => t.text.trim() !== ''),
    tolerance,
  );
  const headIndex = all.findIndex((l) => l.length >= 2 && l.every((t) => /^[A-Za-z]{1,2}$/.test(t.text.trim())));
  if (headIndex < 0) return null;
  const head = all[headIndex]!;
  const columns = head.map((t) => t.text.trim());
  const rows: CardGrid['rows'] = [];
  for (const line of all.slice(headIndex + 1)) {
    const [label, ...values] = line;
    if (!label || !isLabel(label.text.trim()) || values.length !== columns.length) continue;
    const cells: string[] = columns.map(() => '');
    for (const v of values) {
      let best = 0;
      head.forEach((h, i) => {
        if (Math.abs(h.x - v.x) < Math.abs(head[best]!.x - v.x)) best = i;
      });
      cells[best] = v.text.trim();
    }
    if (cells.some((c) => c === '')) continue;
    rows.push({ label: label.text.trim(), cells });
  }
  return rows.length ? { columns, rows } : null;
}

/** The cell a label asks for (such as "the value at B3"): its column and row, or null. */
export function askedCell(grid: CardGrid, label: string): { column: number; row: number } | null {
  for (const [row, r] of grid.rows.entries()) {
    for (const [column, c] of grid.columns.entries()) {
      if (new RegExp(`(^|[^A-Za-z0-9])${c}\\s?-?\\s?${r.label}($|[^A-Za-z0-9])`).test(label)) return { column, row };
    }
  }
  return null;
}

/** The SVG source of a `data:image/svg+xml` address (base64 or percent-encoded); null for any other. */
export function svgSource(dataUrl: string): string | null {
  const m = /^data:image\/svg\+xml(;[^,]*)?,(.*)$/is.exec(dataUrl);
  if (!m) return null;
  try {
    if (/;base64/i.test(m[1] ?? '')) {
      const bytes = Uint8Array.from(atob(m[2]!), (c) => c.charCodeAt(0));
      return new TextDecoder().decode(bytes);
    }
    return decodeURIComponent(m[2]!);
  } catch {
    return null;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the XML entities of a text (named and numeric). */
function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[e.toLowerCase()] ?? whole;
  });
}

/** The `<text>` elements of an SVG source that carry their own `x` and `y`, with their text (inner markup dropped). */
export function svgTexts(svg: string): CardText[] {
  const out: CardText[] = [];
  for (const m of svg.matchAll(/<text\b([^>]*)>([\s\S]*?)<\/text>/g)) {
    const attr = (name: string) => Number.parseFloat(new RegExp(`\\s${name}\\s*=\\s*["']\\s*(-?[\\d.]+)`).exec(m[1]!)?.[1] ?? '');
    const x = attr('x');
    const y = attr('y');
    if (Number.isFinite(x) && Number.isFinite(y)) out.push({ x, y, text: decodeXml(m[2]!.replace(/<[^>]*>/g, '')) });
  }
  return out;
}

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { askedCell, cardGrid, svgSource, svgTexts } from '../src/logic/card.js';

/** A card drawn as a bank draws one: a title, column letters, row numbers, a value per cell. */
function cardSvg(values: (col: string, row: number) => string): string {
  const cols = ['A', 'B', 'C'];
  const parts = ['<svg xmlns="http://www.w3.org/2000/svg" role="img"><text x="90" y="20">Tarjeta &amp; coordenadas</text>'];
  cols.forEach((c, i) => parts.push(`<text x="${58 + 56 * i}" y="36" font-weight="bold">${c}</text>`));
  for (const row of [1, 2]) {
    parts.push(`<text x="17" y="${44 + 28 * (row - 1) + 19}">${row}</text>`);
    cols.forEach((c, i) =>
      parts.push(`<rect x="${30 + 56 * i}"/><text x="${58 + 56 * i}" y="${44 + 28 * (row - 1) + 19}"><tspan>${values(c, row)}</tspan></text>`),
    );
  }
  return `${parts.join('')}</svg>`;
}

describe('the coordinates card as data', () => {
  const svg = cardSvg((c, r) => `${c.charCodeAt(0) - 64}${r}00`);

  it('reads an SVG card into columns, rows and values, the title left out', () => {
    assert.deepEqual(cardGrid(svgTexts(svg)), {
      columns: ['A', 'B', 'C'],
      rows: [
        { label: '1', cells: ['1100', '2100', '3100'] },
        { label: '2', cells: ['1200', '2200', '3200'] },
      ],
    });
  });

  it('reads base64 and percent-encoded SVG addresses, and nothing else', () => {
    const b64 = `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
    assert.equal(svgSource(b64), svg);
    assert.equal(svgSource(`data:image/svg+xml,${encodeURIComponent(svg)}`), svg);
    assert.equal(svgSource('data:image/png;base64,iVBORw0KGgo='), null);
    assert.equal(svgSource('https://bank.example/card.svg'), null);
  });

  it('finds the cell the bank asks for in its label', () => {
    const grid = cardGrid(svgTexts(svg))!;
    assert.deepEqual(askedCell(grid, 'Valor de la coordenada B2 de la tarjeta mostrada'), { column: 1, row: 1 });
    assert.deepEqual(askedCell(grid, 'Position C-1'), { column: 2, row: 0 });
    assert.equal(askedCell(grid, 'Enter the value shown'), null);
    assert.equal(askedCell(grid, 'Code AB12'), null, 'not inside another word');
  });

  it('gives no grid for texts that are not one (a picture with a caption, a ragged table)', () => {
    assert.equal(cardGrid(svgTexts('<svg><text x="1" y="1">Scan me</text></svg>')), null);
    assert.equal(
      cardGrid([
        { x: 10, y: 10, text: 'A' },
        { x: 20, y: 10, text: 'B' },
        { x: 0, y: 30, text: '1' },
        { x: 10, y: 30, text: '12' },
      ]),
      null,
    );
  });
});

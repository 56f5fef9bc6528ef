/**
 * A QR code as an SVG path (one square per dark module), from the small `lean-qr` encoder,
 * loaded only when a code is shown. No inline style: the caller's stylesheet colours it.
 */
/** The code's size in modules and the path of its dark modules. */
export interface QrPath {
  size: number;
  d: string;
}

export async function qrPath(text: string): Promise<QrPath> {
  const { generate, correction } = await import('lean-qr/nano');
  const code = generate(text, { minCorrectionLevel: correction.M });
  let d = '';
  for (let y = 0; y < code.size; y++) for (let x = 0; x < code.size; x++) if (code.get(x, y)) d += `M${x} ${y}h1v1h-1z`;
  return { size: code.size, d };
}

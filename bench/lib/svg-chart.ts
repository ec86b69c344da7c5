export interface Series {
  readonly name: string;
  readonly color: string;
  /** One value per x label, or null where the side did not run. */
  readonly values: readonly (number | null)[];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A line chart with a log-scale y axis, as standalone SVG text. */
export function lineChartSvg(
  title: string,
  xLabels: readonly string[],
  series: readonly Series[],
  yLabel: string,
): string {
  const width = 720;
  const m = { left: 64, right: 170, top: 40, bottom: 48 };
  const height = Math.max(380, m.top + 20 + series.length * 20 + m.bottom);
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const all = series.flatMap((s) => s.values.filter((v): v is number => v !== null && v > 0));
  const lo = 10 ** Math.floor(Math.log10(Math.min(...all, 1)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...all, 10)));
  const x = (i: number) => m.left + (xLabels.length === 1 ? plotW / 2 : (i * plotW) / (xLabels.length - 1));
  const y = (v: number) =>
    m.top + plotH - ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${m.left}" y="22" font-size="14" font-weight="bold">${esc(title)}</text>`,
  ];
  for (let p = Math.log10(lo); p <= Math.log10(hi) + 1e-9; p++) {
    const v = 10 ** p;
    out.push(
      `<line x1="${m.left}" x2="${m.left + plotW}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#ddd"/>`,
    );
    out.push(
      `<text x="${m.left - 8}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v >= 1 ? v.toLocaleString('en-US') : v}</text>`,
    );
  }
  xLabels.forEach((label, i) => {
    out.push(
      `<line x1="${x(i).toFixed(1)}" x2="${x(i).toFixed(1)}" y1="${m.top}" y2="${m.top + plotH}" stroke="#f0f0f0"/>`,
    );
    out.push(`<text x="${x(i).toFixed(1)}" y="${m.top + plotH + 18}" text-anchor="middle">${esc(label)}</text>`);
  });
  out.push(`<text x="${m.left + plotW / 2}" y="${height - 8}" text-anchor="middle">window</text>`);
  out.push(
    `<text transform="translate(16 ${m.top + plotH / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
  );
  out.push(`<rect x="${m.left}" y="${m.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`);
  series.forEach((s, k) => {
    const points = s.values
      .map((v, i) => (v !== null && v > 0 ? `${x(i).toFixed(1)},${y(v).toFixed(1)}` : null))
      .filter((p): p is string => p !== null);
    if (points.length > 1)
      out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${points.join(' ')}"/>`);
    for (const p of points) {
      const [cx, cy] = p.split(',');
      out.push(`<circle cx="${cx}" cy="${cy}" r="3.5" fill="${s.color}"/>`);
    }
    const ly = m.top + 10 + k * 20;
    out.push(
      `<line x1="${m.left + plotW + 14}" x2="${m.left + plotW + 34}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2"/>`,
    );
    out.push(`<text x="${m.left + plotW + 40}" y="${ly + 4}">${esc(s.name)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/**
 * A small hand-rolled SVG of the capacity bench's samples: delegations parked (x) against the
 * worker's RSS in MiB (y), with the 1 GiB target as a line, so a reader sees the curve without
 * a plotting library.
 */
export interface ChartSeries {
  label: string;
  color: string;
  points: Array<{ x: number; y: number }>;
}

export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  /** A horizontal reference line (the target). */
  limit?: { y: number; label: string };
}

const WIDTH = 720;
const HEIGHT = 420;
const MARGIN = { left: 70, right: 20, top: 40, bottom: 55 };

/** 1, 2 or 5 times a power of ten: about `count` ticks from 0 to `max`. */
export function niceStep(max: number, count = 5): number {
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= raw)! * power;
  return step;
}

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderChart(series: ChartSeries[], options: ChartOptions): string {
  const all = series.flatMap((line) => line.points);
  const xMax = Math.max(1, ...all.map((point) => point.x));
  const yTop = Math.max(1, options.limit?.y ?? 0, ...all.map((point) => point.y)) * 1.08;
  const xStep = niceStep(xMax);
  const yStep = niceStep(yTop);
  const xEnd = Math.ceil(xMax / xStep) * xStep;
  const yEnd = Math.ceil(yTop / yStep) * yStep;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const sx = (x: number): number => MARGIN.left + (x / xEnd) * plotW;
  const sy = (y: number): number => MARGIN.top + plotH - (y / yEnd) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="15">${escape(options.title)}</text>`,
  ];
  for (let x = 0; x <= xEnd; x += xStep) {
    parts.push(
      `<line x1="${sx(x)}" y1="${sy(0)}" x2="${sx(x)}" y2="${sy(yEnd)}" stroke="#eee"/>`,
      `<text x="${sx(x)}" y="${sy(0) + 16}" text-anchor="middle">${x}</text>`,
    );
  }
  for (let y = 0; y <= yEnd; y += yStep) {
    parts.push(
      `<line x1="${sx(0)}" y1="${sy(y)}" x2="${sx(xEnd)}" y2="${sy(y)}" stroke="#eee"/>`,
      `<text x="${sx(0) - 6}" y="${sy(y) + 4}" text-anchor="end">${y}</text>`,
    );
  }
  parts.push(
    `<line x1="${sx(0)}" y1="${sy(0)}" x2="${sx(xEnd)}" y2="${sy(0)}" stroke="black"/>`,
    `<line x1="${sx(0)}" y1="${sy(0)}" x2="${sx(0)}" y2="${sy(yEnd)}" stroke="black"/>`,
    `<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 14}" text-anchor="middle">${escape(options.xLabel)}</text>`,
    `<text transform="translate(18 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escape(options.yLabel)}</text>`,
  );
  if (options.limit !== undefined) {
    const y = sy(options.limit.y);
    parts.push(
      `<line x1="${sx(0)}" y1="${y}" x2="${sx(xEnd)}" y2="${y}" stroke="#c00" stroke-dasharray="6 4"/>`,
      `<text x="${sx(xEnd) - 4}" y="${y - 6}" text-anchor="end" fill="#c00">${escape(options.limit.label)}</text>`,
    );
  }
  series.forEach((line, index) => {
    const points = line.points.map(
      (point) => `${sx(point.x).toFixed(1)},${sy(point.y).toFixed(1)}`,
    );
    parts.push(
      `<polyline fill="none" stroke="${line.color}" stroke-width="2" points="${points.join(' ')}"/>`,
      `<text x="${MARGIN.left + 10}" y="${MARGIN.top + 16 + index * 16}" fill="${line.color}">${escape(line.label)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

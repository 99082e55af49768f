/** Shares (0..1) as horizontal bars, with the numbers in a table for screen readers. */
export interface Rate {
  label: string;
  /** null: nothing to measure yet (drawn empty, read "no data"). */
  value: number | null;
  tone: 'good' | 'bad' | 'neutral';
}

const ROW = 28;
const LABEL = 190;
const WIDTH = 560;

const percent = (value: number | null): string => (value === null ? 'no data' : `${Math.round(value * 100)}%`);

export const RateChart = ({ rates, title }: { rates: Rate[]; title: string }) => {
  const bar = WIDTH - LABEL - 60;
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${rates.length * ROW + 8}`}
        width={WIDTH}
        height={rates.length * ROW + 8}
        class="rate-chart"
        role="img"
        aria-label={title}
        preserveAspectRatio="xMinYMid meet"
      >
        <title>{title}</title>
        {rates.map((r, i) => {
          const y = i * ROW + 4;
          return (
            <g key={r.label}>
              <text x="0" y={y + 15} class="chart-label">
                {r.label}
              </text>
              <rect x={LABEL} y={y + 3} width={bar} height={16} rx="3" class="bar-track" />
              <rect x={LABEL} y={y + 3} width={bar * Math.max(0, Math.min(1, r.value ?? 0))} height={16} rx="3" class={`bar-${r.tone}`} />
              <text x={LABEL + bar + 8} y={y + 15} class="chart-label">
                {percent(r.value)}
              </text>
            </g>
          );
        })}
      </svg>
      <table class="visually-hidden">
        <caption>{title}</caption>
        <tbody>
          {rates.map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.label}</th>
              <td>{percent(r.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
};

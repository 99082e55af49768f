import type { FeedbackSummary } from '../lib/types';

const HEIGHT = 160;
const BAR = 10;
const GAP = 4;
const GROUP = BAR * 2 + GAP + 14;

/** Likes and dislikes per day as grouped bars, with the numbers in a table for screen readers. */
export const FeedbackChart = ({ days }: { days: FeedbackSummary['byDay'] }) => {
  const max = Math.max(1, ...days.flatMap((d) => [d.likes, d.dislikes]));
  const width = Math.max(days.length * GROUP + 40, 240);
  const y = (value: number) => HEIGHT - (value / max) * (HEIGHT - 20);
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${width} ${HEIGHT + 24}`}
        width="100%"
        height={HEIGHT + 24}
        role="img"
        aria-labelledby="feedback-chart-caption"
        preserveAspectRatio="xMinYMid meet"
      >
        <title>Likes and dislikes per day</title>
        {[...new Set([0, Math.round(max / 2), max])].map((tick) => (
          <g key={tick}>
            <line x1="30" x2={width} y1={y(tick)} y2={y(tick)} class="chart-grid" />
            <text x="24" y={y(tick) + 4} class="chart-axis" text-anchor="end">
              {tick}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = 40 + i * GROUP;
          return (
            <g key={d.day}>
              <rect x={x} y={y(d.likes)} width={BAR} height={HEIGHT - y(d.likes)} class="bar-like">
                <title>
                  {d.day}: {d.likes} likes
                </title>
              </rect>
              <rect x={x + BAR + 2} y={y(d.dislikes)} width={BAR} height={HEIGHT - y(d.dislikes)} class="bar-dislike">
                <title>
                  {d.day}: {d.dislikes} dislikes
                </title>
              </rect>
              <text x={x + BAR} y={HEIGHT + 16} class="chart-axis" text-anchor="middle">
                {d.day.slice(5)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption id="feedback-chart-caption">
        Per day: <span class="legend legend-like">likes</span> <span class="legend legend-dislike">dislikes</span>
      </figcaption>
      <table class="visually-hidden">
        <thead>
          <tr>
            <th>Day</th>
            <th>Likes</th>
            <th>Dislikes</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{d.likes}</td>
              <td>{d.dislikes}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
};

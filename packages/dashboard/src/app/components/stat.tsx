/** One figure with what it counts, in a row of `.stats`. */
export const Stat = ({ value, label }: { value: string | number; label: string }) => (
  <div class="stat">
    <span class="stat-value">{value}</span>
    <span class="muted">{label}</span>
  </div>
);

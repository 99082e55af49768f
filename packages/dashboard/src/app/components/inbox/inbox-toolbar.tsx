import type { FollowState } from '../../lib/follow';
import { Button } from '../ui';

/** Who works the inbox, whether the live feed is up, the alert switch, and the admin's canned replies. */
export const InboxToolbar = ({
  name,
  state,
  alerts,
  canManage,
  onManage,
  onStop,
}: {
  name: string;
  state: FollowState;
  alerts: { on: boolean; permission: string; toggle: (on: boolean) => void };
  canManage: boolean;
  onManage: () => void;
  onStop: (() => void) | null;
}) => (
  <div class="inbox-toolbar">
    <span>
      Working as <strong>{name}</strong> ·{' '}
      <span class={`live-dot live-${state}`} aria-live="polite">
        {state}
      </span>
    </span>
    <label class="toggle">
      <input type="checkbox" checked={alerts.on} onChange={(e) => alerts.toggle(e.currentTarget.checked)} />
      Alert me when a visitor waits
    </label>
    {alerts.on && alerts.permission === 'denied' ? (
      <span class="muted small">Notifications are blocked in this browser: sound only.</span>
    ) : null}
    <span class="toolbar-spacer" />
    {canManage ? (
      <Button variant="secondary" class="button-small" onClick={onManage}>
        Canned replies
      </Button>
    ) : null}
    {onStop ? (
      <Button variant="secondary" class="button-small" onClick={onStop}>
        Stop working as {name}
      </Button>
    ) : null}
  </div>
);

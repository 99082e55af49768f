import { useEffect } from 'preact/hooks';
import { agentFetch } from './api';

/** Sooner than the server's 2 minutes, so a missed beat does not make the agent away. */
const RENEW_MS = 60_000;

/**
 * Says the agent is online while the inbox is open (renewed every minute) and away when it closes:
 * the page unmounting it or the tab going away (a keepalive request, sent while the page unloads).
 * A tab closed without a word still goes away on the server 2 minutes after its live feed ended.
 */
export const useAgentPresence = (token: string): void => {
  useEffect(() => {
    const say = (status: 'online' | 'away') =>
      agentFetch(token, '/presence', { method: 'PUT', body: { status }, keepalive: status === 'away' }).catch(() => undefined);
    void say('online');
    const timer = setInterval(() => void say('online'), RENEW_MS);
    const away = () => void say('away');
    const back = () => void say('online');
    window.addEventListener('pagehide', away);
    window.addEventListener('pageshow', back);
    return () => {
      clearInterval(timer);
      window.removeEventListener('pagehide', away);
      window.removeEventListener('pageshow', back);
      void say('away');
    };
  }, [token]);
};

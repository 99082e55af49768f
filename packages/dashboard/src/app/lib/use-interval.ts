import { useEffect, useRef } from 'preact/hooks';

/** Calls `tick` every `ms` while `active` (e.g. reloads a source while it crawls). */
export const useInterval = (active: boolean, tick: () => void, ms: number): void => {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => latest.current(), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
};

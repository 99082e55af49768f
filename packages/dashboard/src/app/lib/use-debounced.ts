import { useEffect, useState } from 'preact/hooks';

/** `value`, once it has stopped changing for `ms`. */
export const useDebounced = <T>(value: T, ms = 250): T => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
};

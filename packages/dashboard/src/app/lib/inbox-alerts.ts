import { useState } from 'preact/hooks';

/** Whether this browser alerts the agent of a new waiting conversation; off until they opt in. */
const KEY = 'palaver.inboxAlerts';

export const readAlertsOn = (): boolean => localStorage.getItem(KEY) === 'on';

/** A short two-tone beep made on the spot (no sound file to load). */
export const beep = (): void => {
  const Context = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return;
  const audio = new Context();
  const gain = audio.createGain();
  gain.gain.setValueAtTime(0.0001, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
  gain.connect(audio.destination);
  [880, 1320].forEach((frequency, i) => {
    const tone = audio.createOscillator();
    tone.type = 'sine';
    tone.frequency.value = frequency;
    tone.connect(gain);
    tone.start(audio.currentTime + i * 0.12);
    tone.stop(audio.currentTime + 0.12 + i * 0.12);
  });
  setTimeout(() => void audio.close(), 600);
};

/** The alert for one newly waiting conversation: a sound, and a system notification when allowed. */
export const alertWaiting = (title: string | null): void => {
  beep();
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const notification = new Notification('A visitor is waiting for a person', {
    body: title ?? 'A new conversation is in the queue.',
    tag: 'palaver-waiting',
  });
  notification.onclick = () => {
    window.focus();
    notification.close();
  };
};

/**
 * The opt-in switch: turning it on asks the browser for notification permission (only then); the
 * sound plays even when notifications are refused.
 */
export const useAlertsToggle = () => {
  const [on, setOn] = useState(readAlertsOn);
  const [permission, setPermission] = useState(() => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission));
  const toggle = async (next: boolean) => {
    localStorage.setItem(KEY, next ? 'on' : 'off');
    setOn(next);
    if (next && typeof Notification !== 'undefined' && Notification.permission === 'default')
      setPermission(await Notification.requestPermission());
  };
  return { on, permission, toggle };
};

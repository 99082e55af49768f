import { adminFetch } from './api';

/** Fetches an admin download (it needs the bearer token, so a plain link cannot) and saves it. */
export const download = async (path: string, fallbackName: string): Promise<void> => {
  const response = await adminFetch(path);
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

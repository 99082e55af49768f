import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * ADMIN_TOKEN from the environment, else the one saved in DATA_DIR, else a new random one that
 * is saved (mode 600) so it survives restarts. `generated` tells the launcher to print it.
 */
export const resolveAdminToken = async (
  configured: string | undefined,
  dataDir: string,
): Promise<{ token: string; generated: boolean }> => {
  if (configured) return { token: configured, generated: false };
  const path = join(dataDir, 'admin-token');
  try {
    const saved = (await readFile(path, 'utf8')).trim();
    if (saved) return { token: saved, generated: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const token = `adm_${randomBytes(24).toString('base64url')}`;
  await mkdir(dataDir, { recursive: true });
  await writeFile(path, `${token}\n`, { mode: 0o600 });
  return { token, generated: true };
};

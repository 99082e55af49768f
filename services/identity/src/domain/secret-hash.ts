import { hash } from 'node:crypto';

/** SHA-256 (hex) of a secret: the only form in which keys and session tokens are stored. */
export const hashSecret = (secret: string): string => hash('sha256', secret, 'hex');

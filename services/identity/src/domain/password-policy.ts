import { AppError, MIN_PASSWORD } from '@palaver/contracts';
import { COMMON_PASSWORDS } from './common-passwords';

/** The length is the schema's; this refuses what is long enough but guessed first. */
export const assertAcceptablePassword = (password: string, email: string): void => {
  const lower = password.toLowerCase();
  if (password.length < MIN_PASSWORD) {
    throw new AppError('VALIDATION_ERROR', `the password must have at least ${MIN_PASSWORD} characters`, { field: 'password' });
  }
  if (COMMON_PASSWORDS.has(lower) || new Set(lower).size <= 2) {
    throw new AppError('VALIDATION_ERROR', 'this password is too common: choose another', { field: 'password' });
  }
  if (lower.includes(email.split('@')[0]!.toLowerCase()) && email.split('@')[0]!.length >= 4) {
    throw new AppError('VALIDATION_ERROR', 'the password must not contain the email address', { field: 'password' });
  }
};

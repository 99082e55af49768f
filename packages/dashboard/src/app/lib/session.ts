/** The admin token lives in sessionStorage: this tab only, gone when it closes. */
const KEY = 'palaver.adminToken';

export const readToken = (): string | null => sessionStorage.getItem(KEY);
export const saveToken = (token: string): void => sessionStorage.setItem(KEY, token);
export const clearToken = (): void => sessionStorage.removeItem(KEY);

export function sha256OfFile(path: string): string;
export function unverifiedFile(path: string, expected: { sha256: string; size: number }): string | undefined;

export function applyDefaults(_obj: unknown): void {}

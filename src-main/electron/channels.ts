/** IPC channel names shared by main and preload (kept apart so the preload bundles nothing else). */
export const SESSION_CHANNEL = 'strikebook:session';

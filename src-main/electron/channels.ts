/** IPC channel names shared by main and preload (kept apart so the preload bundles nothing else). */
export const SESSION_CHANNEL = 'strikebook:session';
/** Settings → Export for research: the system's folder dialog, answered with the folder's grant (export-folder.ts). */
export const EXPORT_FOLDER_CHANNEL = 'strikebook:choose-export-folder';

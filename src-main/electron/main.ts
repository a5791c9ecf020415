/** Electron entry (electron-vite builds it to out/main/main.js). All logic lives in ./app for testing. */
import { bootstrap } from './app';

void bootstrap();

/** The project's root folder (the one holding package.json), for scripts and tests wherever they sit. */
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

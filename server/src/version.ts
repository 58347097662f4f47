/**
 * lpreq's version, said once: in package.json. The bundles take it from there at build time
 * (esbuild inlines this one field of the file, not the rest of it).
 */
import { version } from '../../package.json';

export const VERSION: string = version;

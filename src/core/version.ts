import packageJson from '../../package.json';

/** The dpsynth version written into every report. */
export const APP_VERSION: string = packageJson.version;

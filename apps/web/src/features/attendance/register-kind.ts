/** The register's kind in the offline core's queue (a tiny module: the shell registers its sender without loading the register's code). */
export const REGISTER_KIND = 'register';

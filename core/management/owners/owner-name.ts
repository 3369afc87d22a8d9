/** The longest owner name, after trimming: the routes and the API description share it. */
export const MAX_NAME_LENGTH = 100;

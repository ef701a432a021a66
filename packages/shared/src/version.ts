export const ROUTEPLANE_VERSION = '0.1.0';

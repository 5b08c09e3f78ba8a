/**
 * Debian's Chromium as every browser run of the project starts it: the journeys, the cart bench and
 * Lighthouse. Never a downloaded browser. The network flags matter on machines with no way out: without
 * them Chromium keeps trying to reach Google's services and the refused connections pile up.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

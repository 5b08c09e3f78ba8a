// Runs before any module is loaded: the storefront's API host must be absolute for Node's fetch.
process.env.API_URL = 'http://shop.test/';

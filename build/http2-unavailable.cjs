// Stands in for `node:http2` inside undici in the bundle. codexbar never negotiates HTTP/2 (undici's
// `allowH2` stays off), and undici already treats a failing `require('node:http2')` as "no HTTP/2", so
// loading Node's http2 module (and tls and crypto with it) on every run buys nothing.
throw new Error('HTTP/2 is not used by codexbar');

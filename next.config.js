/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and Node-only packages stay out of the bundle and load from node_modules at run time.
  serverExternalPackages: ["better-sqlite3", "pg", "pino", "prom-client", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg"],
};

module.exports = nextConfig;

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and Node-only packages stay out of the bundle and load from node_modules at run time.
  serverExternalPackages: ["better-sqlite3", "pg", "pino", "prom-client", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg"],
  // No page of the dashboard may be framed (clickjacking): the legacy header and its CSP successor.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

module.exports = nextConfig;

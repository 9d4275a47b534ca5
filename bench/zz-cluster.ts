import cluster from "node:cluster";
import { startServer } from "@/lib/server/start-server";
const workers = Number(process.env.WORKERS ?? 2);
if (cluster.isPrimary && workers > 1) { for (let i = 0; i < workers; i++) cluster.fork(); }
else startServer({ dashboard: false }).then(() => console.log("up", process.pid));

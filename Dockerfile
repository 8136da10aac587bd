# One image for deputy's worker and API (docker-compose.yml picks the subcommand).
# glibc (Debian), not Alpine: Temporal's native core bridge ships prebuilt for glibc.
FROM node:20.19.5-bookworm-slim AS console

# The web console is bundled by Vite, a devDependency the runtime image leaves out: build it
# here and copy only web/dist. (Type-only imports of src/ are erased, so web/ is all it reads.)
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY web ./web
RUN npx tsx web/build.ts --force

FROM node:20.19.5-bookworm-slim

ENV NODE_ENV=production
WORKDIR /app

# Dependencies first, so source edits do not invalidate the npm layer. tsx is a runtime
# dependency: bin/deputy.mjs runs the TypeScript sources directly, no build step.
COPY package.json package-lock.json ./
# --ignore-scripts: the console is built above;
# `npm rebuild` then runs the dependencies' install scripts (the Temporal SDK's and esbuild's).
RUN npm ci --omit=dev --ignore-scripts && npm rebuild && npm cache clean --force

# Everything else (sources, built-in agents and skills); .dockerignore keeps local state out.
COPY . .
COPY --from=console /build/web/dist ./web/dist

# A named volume mounted here inherits this ownership, so the unprivileged user can write to it.
RUN mkdir -p /workspace && chown node:node /workspace
USER node
ENV DEPUTY_WORKSPACE=/workspace

CMD ["node", "bin/deputy.mjs", "worker"]

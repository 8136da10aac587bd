# One image for deputy's worker and API (docker-compose.yml picks the subcommand).
# glibc (Debian), not Alpine: Temporal's native core bridge ships prebuilt for glibc.
#
# The image holds what `npm pack` publishes (compiled dist/, the workflow bundle, the console,
# the built-in agents and skills), so it runs the same files a project that installs deputy does:
# no TypeScript, no tsx at run time. Its dependencies come pinned from the lockfile.
FROM node:20.19.5-bookworm-slim AS package

WORKDIR /build
COPY package.json package-lock.json ./
# The build tools (tsc, Vite, the workflow bundler) are devDependencies: all of them here.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild
COPY . .
# prepack builds the console and dist/ (npm run build:console && npm run build).
RUN mkdir /out && npm pack --pack-destination /out && mv /out/deputy-*.tgz /out/deputy.tgz

FROM node:20.19.5-bookworm-slim

ENV NODE_ENV=production
WORKDIR /app

# Dependencies first, so source edits do not invalidate the npm layer.
COPY package.json package-lock.json ./
# --ignore-scripts, then `npm rebuild`: the dependencies' install scripts (the Temporal SDK's)
# run, deputy's own lifecycle scripts (which build) do not: the package below is built.
RUN npm ci --omit=dev --ignore-scripts && npm rebuild && npm cache clean --force

# The packed package's files over it: dist/, bin/, agents/, skills/, web/dist/, docs/.
COPY --from=package /out/deputy.tgz /tmp/deputy.tgz
RUN tar -xzf /tmp/deputy.tgz --strip-components=1 -C /app && rm /tmp/deputy.tgz

# A named volume mounted here inherits this ownership, so the unprivileged user can write to it.
RUN mkdir -p /workspace && chown node:node /workspace
USER node
ENV DEPUTY_WORKSPACE=/workspace

CMD ["node", "bin/deputy.mjs", "worker"]

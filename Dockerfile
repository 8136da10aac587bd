# One image for deputy's worker and API (docker-compose.yml picks the subcommand).
# glibc (Debian), not Alpine: Temporal's native core bridge ships prebuilt for glibc.
FROM node:20.19.5-bookworm-slim

ENV NODE_ENV=production
WORKDIR /app

# Dependencies first, so source edits do not invalidate the npm layer. tsx is a runtime
# dependency: bin/deputy.mjs runs the TypeScript sources directly, no build step.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

# Everything else (sources, built-in agents and skills); .dockerignore keeps local state out.
COPY . .

# A named volume mounted here inherits this ownership, so the unprivileged user can write to it.
RUN mkdir -p /workspace && chown node:node /workspace
USER node
ENV DEPUTY_WORKSPACE=/workspace

CMD ["node", "bin/deputy.mjs", "worker"]

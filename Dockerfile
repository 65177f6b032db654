# The stolik binary and the web client in a small image.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --bin stolik

FROM debian:bookworm-slim
RUN useradd --system --home /srv/stolik stolik && mkdir -p /srv/stolik/data && chown stolik /srv/stolik/data
WORKDIR /srv/stolik
COPY --from=build /src/target/release/stolik /usr/local/bin/stolik
COPY web ./web
USER stolik
ENV STOLIK_BIND=0.0.0.0:8080
EXPOSE 8080
CMD ["stolik", "serve"]

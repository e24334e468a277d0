/**
 * The webhook's TLS material: BouncyCastle-issued CA and serving certificates kept in a Secret, and
 * the Vert.x server options made from them. The only webhook package that does blocking crypto and
 * Secret I/O (on workers).
 */
package io.rollgate.webhook.tls;

package io.rollgate.controller.plugin;

import io.rollgate.plugin.PluginEntry;
import io.rollgate.plugin.PluginRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.file.OpenOptions;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.codec.BodyCodec;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Puts a plugin executable into the plugin folder ({@code --plugin-dir}) and verifies it
 * (docs/plugins.md, "Registration"): {@code file://<path>} is copied, {@code http(s)://<url>} is
 * downloaded (redirects followed, a status other than 200 is an error), then the SHA-256 is checked
 * when the registration gives one, and the file is made executable. The file lands at {@code
 * <plugin-dir>/<kind>/<org>/<name>}, replaced atomically, so a running process of an older
 * registration is never overwritten mid-read.
 *
 * <p>Copying and hashing run on a Vert.x worker; the download streams to disk on the event loop.
 */
public final class PluginFetcher {

  /** The bound of one download. */
  public static final Duration DOWNLOAD_TIMEOUT = Duration.ofMinutes(5);

  private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");

  private final Vertx vertx;
  private final Path dir;
  private final WebClient client;

  /**
   * Creates a fetcher.
   *
   * @param vertx the controller's Vert.x instance
   * @param dir the plugin folder, created when missing
   */
  public PluginFetcher(Vertx vertx, Path dir) {
    this.vertx = vertx;
    this.dir = dir;
    this.client =
        WebClient.create(
            vertx,
            new WebClientOptions()
                .setUserAgent("rollgate-controller")
                .setFollowRedirects(true)
                .setMaxRedirects(5));
  }

  /**
   * Fetches and verifies one executable plugin.
   *
   * @param kind the kind folder ({@code step} or {@code trafficrouter})
   * @param entry the registration; {@code location} must be {@code file://} or {@code http(s)://}
   * @return the path of the verified executable; fails with an {@link IllegalArgumentException}
   *     whose message says what is wrong (bad location, unreadable file, HTTP status, checksum
   *     mismatch with both digests)
   */
  public Future<Path> fetch(String kind, PluginEntry entry) {
    return fetchVerified(kind, entry).map(Fetched::path);
  }

  /** A fetched and verified executable and its SHA-256 (64 lower-case hex digits). */
  public record Fetched(Path path, String sha256) {}

  /**
   * Fetches and verifies one executable plugin, as {@link #fetch}, and also tells the file's
   * SHA-256 (the plugin host remembers per digest which protocol a binary speaks).
   *
   * @param kind the kind folder ({@code step} or {@code trafficrouter})
   * @param entry the registration
   * @return the executable and its digest; fails as {@link #fetch}
   */
  public Future<Fetched> fetchVerified(String kind, PluginEntry entry) {
    Path target;
    URI uri;
    try {
      target = targetFor(kind, entry.name());
      uri = URI.create(entry.location());
      if (entry.sha256() != null
          && !entry.sha256().isEmpty()
          && !SHA256.matcher(entry.sha256()).matches()) {
        throw new IllegalArgumentException(
            "sha256 must be 64 hexadecimal digits, got " + entry.sha256());
      }
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(new IllegalArgumentException(e.getMessage(), e));
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    Path tmp = target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    Future<Path> fetched;
    switch (scheme) {
      case "file" -> fetched = vertx.executeBlocking(() -> copy(filePath(uri), tmp), false);
      case "http", "https" -> fetched = download(entry.location(), tmp);
      default -> {
        return Future.failedFuture(
            new IllegalArgumentException(
                "location "
                    + entry.location()
                    + ": must start with file://, http://, https:// or java:"));
      }
    }
    return fetched
        .compose(p -> vertx.executeBlocking(() -> verifyAndInstall(p, target, entry), false))
        .recover(
            err -> {
              vertx.executeBlocking(() -> Files.deleteIfExists(tmp), false);
              return Future.failedFuture(
                  err instanceof IllegalArgumentException
                      ? err
                      : new IllegalArgumentException(err.getMessage(), err));
            });
  }

  /**
   * Where a plugin's executable is kept.
   *
   * @param kind the kind folder
   * @param name the plugin name, {@code <org>/<name>}
   * @return {@code <plugin-dir>/<kind>/<org>/<name>}
   * @throws IllegalArgumentException when the name is not of the form {@code <org>/<name>} or is
   *     {@code .} or {@code ..}
   */
  public Path targetFor(String kind, String name) {
    if (name == null || !PluginRegistry.NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "plugin name " + name + " must be in the format of <namespace>/<name>");
    }
    String[] parts = name.split("/", 2);
    for (String p : parts) {
      if (p.equals(".") || p.equals("..")) {
        throw new IllegalArgumentException(
            "plugin name " + name + " must not use . or .. as a part");
      }
    }
    return dir.resolve(kind).resolve(parts[0]).resolve(parts[1]);
  }

  private Path copy(Path source, Path tmp) throws IOException {
    if (!Files.isRegularFile(source)) {
      throw new IllegalArgumentException("location file://" + source + ": no such file");
    }
    Files.createDirectories(tmp.getParent());
    Files.copy(source, tmp, StandardCopyOption.REPLACE_EXISTING);
    return tmp;
  }

  private Future<Path> download(String url, Path tmp) {
    return vertx
        .executeBlocking(() -> Files.createDirectories(tmp.getParent()), false)
        .compose(
            v ->
                vertx
                    .fileSystem()
                    .open(
                        tmp.toString(),
                        new OpenOptions().setWrite(true).setCreate(true).setTruncateExisting(true)))
        .compose(
            file ->
                client
                    .getAbs(url)
                    .as(BodyCodec.pipe(file))
                    .send()
                    .timeout(DOWNLOAD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .recover(
                        err ->
                            file.close()
                                .transform(
                                    x ->
                                        Future.failedFuture(
                                            new IllegalArgumentException(
                                                "download of "
                                                    + url
                                                    + " failed: "
                                                    + rootMessage(err),
                                                err))))
                    .compose(
                        resp ->
                            resp.statusCode() == 200
                                ? Future.succeededFuture(tmp)
                                : Future.failedFuture(
                                    new IllegalArgumentException(
                                        "download of "
                                            + url
                                            + " failed: HTTP "
                                            + resp.statusCode()))));
  }

  private static Fetched verifyAndInstall(Path tmp, Path target, PluginEntry entry)
      throws IOException {
    String actual = sha256(tmp);
    String expected = entry.sha256();
    if (expected != null && !expected.isEmpty() && !expected.equalsIgnoreCase(actual)) {
      Files.deleteIfExists(tmp);
      throw new IllegalArgumentException(
          "sha256 mismatch for "
              + entry.location()
              + ": expected "
              + expected.toLowerCase(Locale.ROOT)
              + ", got "
              + actual);
    }
    try {
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    } catch (UnsupportedOperationException e) {
      if (!tmp.toFile().setExecutable(true)) {
        throw new IOException("cannot make " + tmp + " executable");
      }
    }
    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return new Fetched(target, actual);
  }

  /**
   * The SHA-256 of a file.
   *
   * @param file the file
   * @return 64 lower-case hex digits
   * @throws IOException when the file cannot be read
   */
  public static String sha256(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[64 * 1024];
      int n;
      while ((n = in.read(buf)) > 0) {
        md.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }

  /** Closes the download client. */
  public void close() {
    client.close();
  }

  /**
   * The file a {@code file://} location names, read as Argo Rollouts reads it: the authority and
   * the path together, made absolute against the working directory, so {@code file://plugin-bin/x}
   * is {@code ./plugin-bin/x} and {@code file:///opt/x} is {@code /opt/x}.
   *
   * @param uri the location
   * @return the absolute path
   */
  static Path filePath(URI uri) {
    String authority = uri.getRawAuthority() == null ? "" : uri.getAuthority();
    String path = uri.getPath() == null ? "" : uri.getPath();
    return Path.of(authority + path).toAbsolutePath();
  }
}

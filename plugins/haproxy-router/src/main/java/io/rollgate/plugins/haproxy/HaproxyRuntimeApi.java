package io.rollgate.plugins.haproxy;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A client of HAProxy's runtime API (the {@code stats socket} with {@code level admin}) in its
 * non-interactive mode: one connection per command, the command and a newline written, the answer
 * read until HAProxy closes the connection.
 */
public final class HaproxyRuntimeApi implements AutoCloseable {

  private final NetClient client;

  /**
   * Creates the client.
   *
   * @param vertx the Vert.x instance whose event loop runs the connections
   */
  public HaproxyRuntimeApi(Vertx vertx) {
    this.client = vertx.createNetClient(new NetClientOptions().setConnectTimeout(5_000));
  }

  /**
   * Runs one command.
   *
   * @param address where the runtime API listens
   * @param command the command, without the newline (for example {@code get weight web/canary})
   * @param timeout the bound on connecting, sending and reading the whole answer
   * @return a Future with the raw answer (HAProxy ends each answer with an empty line); it fails
   *     when the connection is refused, breaks or the timeout passes, with a message naming the
   *     address and the command
   */
  public Future<String> execute(RuntimeApiAddress address, String command, Duration timeout) {
    return client
        .connect(address.socketAddress())
        .compose(socket -> exchange(socket, command, timeout))
        .recover(
            e ->
                Future.failedFuture(
                    "HAProxy runtime API at "
                        + address
                        + " ("
                        + command
                        + "): "
                        + describe(e, timeout)));
  }

  private static Future<String> exchange(NetSocket socket, String command, Duration timeout) {
    Promise<String> answer = Promise.promise();
    Buffer buffer = Buffer.buffer();
    socket.handler(buffer::appendBuffer);
    socket.endHandler(v -> answer.tryComplete(buffer.toString()));
    socket.closeHandler(v -> answer.tryComplete(buffer.toString()));
    socket.exceptionHandler(answer::tryFail);
    socket.write(command + "\n").onFailure(answer::tryFail);
    return answer
        .future()
        .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
        .onFailure(e -> socket.close());
  }

  private static String describe(Throwable e, Duration timeout) {
    if (e instanceof TimeoutException) {
      return "no complete answer within " + timeout.toSeconds() + " s (timeoutSeconds)";
    }
    String message = e.getMessage();
    if (message == null || message.isBlank()) {
      return e.getClass().getSimpleName();
    }
    return message;
  }

  /** Closes the connections' client. */
  @Override
  public void close() {
    client.close();
  }
}

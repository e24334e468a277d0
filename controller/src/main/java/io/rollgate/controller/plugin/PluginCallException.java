package io.rollgate.controller.plugin;

/**
 * A plugin call that did not produce an answer: the plugin is not registered or cannot be fetched,
 * verified or started, or the call failed in transport, timed out, or got an answer that is not
 * protocol v1 (docs/plugins.md, "Requests"). The message always names the plugin and the reason.
 */
public final class PluginCallException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Why the call failed; the {@code outcome} label of {@code rollgate_plugin_calls_total}. */
  public enum Reason {
    /** Not registered, or cannot be fetched, verified or started, or down between restarts. */
    UNAVAILABLE("unavailable"),
    /** Connection refused or reset, or a status other than 200. */
    TRANSPORT("transport_error"),
    /** No answer within {@code --plugin-call-timeout}. */
    TIMEOUT("timeout"),
    /** An answer that is not a JSON object of the protocol. */
    BAD_ANSWER("bad_answer"),
    /** Not sent: this process does not certainly hold the leader Lease (docs/reliability.md). */
    NOT_LEADER("not_leader");

    private final String outcome;

    Reason(String outcome) {
      this.outcome = outcome;
    }

    /**
     * The metric label value.
     *
     * @return for example {@code transport_error}
     */
    public String outcome() {
      return outcome;
    }
  }

  private final Reason reason;

  /**
   * Creates the exception.
   *
   * @param reason why the call failed
   * @param message the message, naming the plugin
   */
  public PluginCallException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  /**
   * Creates the exception with a cause.
   *
   * @param reason why the call failed
   * @param message the message, naming the plugin
   * @param cause the underlying error
   */
  public PluginCallException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  /**
   * Why the call failed.
   *
   * @return the reason
   */
  public Reason reason() {
    return reason;
  }

  /**
   * The reason of any failure: a {@link PluginCallException}'s own, else {@link Reason#TRANSPORT}.
   *
   * @param err the failure
   * @return the reason
   */
  public static Reason reasonOf(Throwable err) {
    return err instanceof PluginCallException p ? p.reason() : Reason.TRANSPORT;
  }
}

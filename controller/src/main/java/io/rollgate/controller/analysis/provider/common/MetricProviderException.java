package io.rollgate.controller.analysis.provider.common;

/**
 * A measurement that could not be taken: the message is what the user sees as the Error
 * measurement's {@code message} (secret values are masked by the reconciler before it is written).
 */
public class MetricProviderException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the measurement message
   */
  public MetricProviderException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause (kept for logs only).
   *
   * @param message the measurement message
   * @param cause the cause
   */
  public MetricProviderException(String message, Throwable cause) {
    super(message, cause);
  }
}

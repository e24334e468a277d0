package io.rollgate.webhook;

/** A request body that is not a usable AdmissionReview; answered with HTTP 400 and the message. */
public final class BadReviewException extends Exception {

  /**
   * Creates the exception.
   *
   * @param message what is wrong with the body, shown to the caller
   */
  public BadReviewException(String message) {
    super(message);
  }
}

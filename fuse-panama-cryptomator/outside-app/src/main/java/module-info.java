module app {
    requires org.cryptomator.integrations.api;
    requires org.cryptomator.cryptofs;
}

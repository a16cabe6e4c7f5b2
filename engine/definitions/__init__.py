"""Process definitions: safe XML parsing, spec building and deploy-time validation."""
